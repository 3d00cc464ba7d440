/** A display link's token never reaches a log: the request log and the error log write the board's path without it. */
import { describe, expect, test } from "bun:test";
import { loggedPath } from "./errors";

describe("loggedPath", () => {
  test("withholds a board's token and leaves every other path as it is", () => {
    expect(loggedPath("/board/AbC_123-xyz")).toBe("/board/token-withheld");
    expect(loggedPath("/board/auth")).toBe("/board/auth");
    expect(loggedPath("/board/user-auth")).toBe("/board/user-auth");
    expect(loggedPath("/menu/display")).toBe("/menu/display");
    expect(loggedPath("/dinners")).toBe("/dinners");
  });
});
