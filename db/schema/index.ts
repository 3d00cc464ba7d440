/** Every table of Mesa, one file per area. */
export * from "./sessions";
export * from "./users";
