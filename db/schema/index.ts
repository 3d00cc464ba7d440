/** Every table of Mesa, one file per area. */
export * from "./sessions";
export * from "./users";
export * from "./places";
export * from "./access";
export * from "./services";
export * from "./organisation";
export * from "./jobs";
export * from "./sales";
export * from "./folded";
export * from "./periods";
export * from "./diner-imports";
export * from "./food";
export * from "./sales-figures";
export * from "./dishes";
export * from "./menus";
export * from "./dish-imports";
export * from "./cash";
