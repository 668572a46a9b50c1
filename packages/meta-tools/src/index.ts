// Coming in the next issue: see README.md. Kept empty so the workspace graph is complete.
export {};
