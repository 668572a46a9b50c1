// Coming in a later issue: see README.md. Kept empty so the workspace graph is complete.
export {};
