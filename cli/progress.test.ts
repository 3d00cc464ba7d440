/** The command line's progress: a bar redrawn in place on a terminal, plain lines otherwise (cli/progress.ts). */
import { describe, expect, test } from "bun:test";
import { translate, type TranslationKey, type TranslationParams } from "../src/shared/i18n";
import { progressReporter } from "./progress";

const en = (key: TranslationKey, params?: TranslationParams) => translate("en", key, params);

function stream(isTTY: boolean) {
  const written: string[] = [];
  return { isTTY, written, write: (text: string) => written.push(text) };
}

describe("progress on the command line", () => {
  test("not a terminal: a line per step and per further tenth of the way, never the same line twice", () => {
    const out = stream(false);
    const progress = progressReporter(out, en);
    progress.update(0, 1, "import.progress_reading");
    progress.update(0, 0, "import.progress_checking");
    for (let done = 0; done <= 100; done++) progress.update(done, 100, "import.progress_checking");
    progress.update(0, 1, "import.progress_saving");
    progress.update(1, 1, "import.progress_saving");
    progress.finish();
    const checking = (done: number) =>
      en("jobs.progress_count", { label: en("import.progress_checking"), done, total: 100 });
    expect(out.written.join("")).toBe(
      [
        `${en("import.progress_reading")}…`,
        `${en("import.progress_checking")}…`,
        ...[10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map(checking),
        `${en("import.progress_saving")}…`,
      ]
        .map((line) => `${line}\n`)
        .join(""),
    );
  });

  test("a terminal: one bar redrawn in place with its share and step, wiped at the end", () => {
    const out = stream(true);
    const progress = progressReporter(out, en);
    progress.update(0, 1, "import.progress_reading");
    progress.update(50, 100, "import.progress_checking");
    progress.update(100, 100, "import.progress_checking");
    progress.finish();
    expect(out.written).toEqual([
      `\r\x1b[2K${en("import.progress_reading")}…`,
      `\r\x1b[2K[############------------]  50 %  ${en("jobs.progress_count", { label: en("import.progress_checking"), done: 50, total: 100 })}`,
      `\r\x1b[2K[########################] 100 %  ${en("jobs.progress_count", { label: en("import.progress_checking"), done: 100, total: 100 })}`,
      "\r\x1b[2K",
    ]);
    expect(out.written.some((text) => text.includes("\n"))).toBe(false);
  });
});
