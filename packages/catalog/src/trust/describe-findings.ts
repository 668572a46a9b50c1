/**
 * Findings of the description scanner in words (docs/trust.md, "Description scanning"): one line each, for the
 * warning the catalog logs, the quarantine error a call gets, and `doctor`.
 */
import type { DescriptionFinding } from './description-scan.js';

/** Kinds that mean instruction-like text (the rest are invisible characters, stripped before the model sees them). */
const instructionKinds = new Set<string>([
  'instruction-override',
  'concealment',
  'hidden-block',
  'secret-access',
  'exfiltration-url',
  'tool-shadowing',
]);

/** True when the finding is instruction-like text (still in the description) rather than stripped characters. */
export function isInstructionFinding(finding: DescriptionFinding): boolean {
  return instructionKinds.has(finding.kind);
}

/** One line: `description: tells the model to ignore … [instruction-override] "…ignore all previous instructions…"`. */
export function describeFinding(finding: DescriptionFinding): string {
  return `${finding.field}: ${finding.reason} [${finding.kind}] "${finding.excerpt}"`;
}

/** One line per finding, in the scanner's order. */
export function describeFindings(findings: readonly DescriptionFinding[]): string[] {
  return findings.map(describeFinding);
}
