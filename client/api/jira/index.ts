export * from "./hostData.js";
export * from "./issues.js";
export * from "./paging.js";
export * from "./projectData.js";
