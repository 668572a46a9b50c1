/**
 * Instruction-like text in tool descriptions (docs/trust.md, "Description scanning"): phrases that address the model
 * rather than describe the tool. Each pattern is narrow on purpose, so the 237 recorded real tools
 * (`fixtures/real-servers`) raise none; a description that tells the model to *use* the tool in some way ("Before
 * using this tool, call list_allowed_directories") is ordinary and is not flagged on its own.
 *
 * Patterns run on the text as `normalizeForMatching` shapes it: compatibility forms folded (fullwidth letters),
 * common Cyrillic and Greek look-alikes mapped to Latin, lowercase, markdown emphasis (`*`, backticks) dropped, whitespace collapsed.
 */

/** The kinds of instruction-like text the scanner flags (the tool-shadowing kind is found in `tool-shadowing.ts`). */
export type InstructionKind =
  | 'instruction-override'
  | 'concealment'
  | 'hidden-block'
  | 'secret-access'
  | 'exfiltration-url';

export interface InstructionPattern {
  kind: InstructionKind;
  reason: string;
  pattern: RegExp;
}

const lookAlikes: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  ο: 'o',
  α: 'a',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
};
const lookAlikePattern = new RegExp(`[${Object.keys(lookAlikes).join('')}]`, 'gu');

/** The text the patterns read (see the file comment). */
export function normalizeForMatching(text: string): string {
  // Most descriptions are ASCII, which has no compatibility forms and no look-alikes: skip that work for them.
  const folded = /^[\u0000-\u007f]*$/.test(text)
    ? text.toLowerCase()
    : text
        .normalize('NFKC')
        .toLowerCase()
        .replace(lookAlikePattern, (character) => lookAlikes[character] ?? character);
  return folded.replace(/[*`]+/g, '').replace(/\s+/g, ' ');
}

/** Letters only: catches "i g n o r e  p r e v i o u s" and "ig-nore previous", at the cost of readable excerpts. */
export function squashForMatching(normalized: string): string {
  return normalized.replace(/[^a-z]+/g, '');
}

const dismiss = '(?:ignore|disregard|forget|override|overrule|bypass|skip|discard|abandon)';
const earlier = `(?:previous|prior|preceding|above|earlier|original|system|developer|initial|all(?: (?:the|of the|your|previous|prior|other))?|any(?: (?:previous|prior|other))?|your|the user'?s?)`;
const guidance = `(?:instructions?|prompts?|rules|directives?|directions|guidelines|guidance|orders|commands|context|messages|constraints)`;
const tell = `(?:tell|telling|inform|informing|mention|mentioning|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|show|showing|let)`;
const secretFile = String.raw`(?:~?/?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.docker/config\.json|\.kube/config|/etc/(?:passwd|shadow)\b|\bmcp\.json\b|claude_desktop_config\.json|\.cursor/|\.env(?:\.local|\.production|\.development)?(?!\.?[\w-])|\.bash_history|\.zsh_history|\.gnupg|keychain|wallet\.dat)`;
const secretThing = `(?:api[ _-]?keys?|passwords?|passphrases?|credentials|secrets?|private keys?|access tokens?|auth(?:entication)? tokens?|session (?:tokens?|cookies?)|ssh keys?|environment variables|env vars|conversation history|chat history|system prompt|previous messages)`;
const sendObject = `(?:data|contents?|results?|output|conversation|chat history|history|files?|keys?|secrets?|credentials|tokens?|passwords?|notes|information|everything|a copy|(?:the )?(?:user'?s? )?(?:request|query|input|arguments|parameters))`;
const sendVerb = `(?:send|post|upload|forward|transmit|submit|exfiltrate|leak|copy|pipe|append|attach|include|report)`;
const readVerb = `(?:read|reading|cat|open|opening|load|loading|fetch|fetching|access|accessing|get|collect|gather|dump|print|output|list|include|attach|send|upload|pass|provide|copy|extract)`;
const placeholder = String.raw`(?:\{[^}\s]*\}|<[^>\s]*>|\$\{?[a-z_]+|\[[a-z_ ]+\]|%[a-z_]+%|\.\.\.)`;
const exfilParameter = `(?:data|d|content|contents|payload|secrets?|password|pass|creds|credentials|env|context|conversation|history|chat|notes|leak|dump|exfil|ssh)`;

/** The patterns, checked in this order; each reports at most once per field. */
export const instructionPatterns: readonly InstructionPattern[] = [
  {
    kind: 'instruction-override',
    reason: 'tells the model to ignore or replace its instructions',
    pattern: new RegExp(
      [
        // "ignore all previous instructions", "disregard the prior system prompt"
        String.raw`\b${dismiss}\s+(?:all\s+)?(?:(?:the|your|any|of the)\s+)?${earlier}\s+(?:\w+\s+)?${guidance}\b`,
        // "disregard the instructions you were given", "forget your rules so far"
        String.raw`\b${dismiss}\s+(?:all\s+)?(?:(?:the|your|any)\s+)?${guidance}\s+(?:you (?:were|have been|got) (?:given|told)|(?:given|told) (?:to you|before|earlier)|above|so far|before this)`,
        // "ignore everything above", "forget everything you were told"
        String.raw`\b${dismiss}\s+(?:everything|anything|all)\s+(?:above|before|else|previously|prior|so far|(?:that )?you (?:were|have been) (?:told|given))`,
      ].join('|'),
    ),
  },
  {
    kind: 'instruction-override',
    reason: 'gives the model new instructions or a new role',
    pattern:
      /\b(?:new|updated|real|actual|true) (?:system )?instructions ?:|\byou are now (?:a|an|in|the|no longer)\b|\bfrom now on,? (?:you|always|never|ignore)\b|\bact as (?:an? )?(?:unrestricted|jailbroken|developer mode|dan)\b|\b(?:enter|enable|activate) (?:developer|god|admin|debug|dan) mode\b|\b(?:ignore|override|replace|reveal|print|output|leak) (?:the|your) (?:system|developer) (?:prompt|message)\b/,
  },
  {
    kind: 'concealment',
    reason: 'tells the model to hide something from the user',
    pattern: new RegExp(
      String.raw`\b(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't|without)\s+(?:ever\s+)?${tell}\s+(?:(?:this|it|that|anything|them)\s+)?(?:to\s+)?(?:the\s+)?(?:end[ -])?users?\b|\b(?:hide|conceal|keep)\s+(?:this|it|that|these (?:steps|instructions))\s+(?:secret\s+|hidden\s+)?from\s+(?:the\s+)?users?\b|\bwithout (?:the )?users?'?s? (?:knowledge|knowing|noticing|awareness|consent|seeing)\b|\b(?:the )?users? (?:must|should|will|need) (?:not|never) (?:know|see|notice|be told|find out)\b|\b(?:silently|secretly|quietly|covertly) (?:send|read|include|append|forward|upload|call|copy|exfiltrate|pass)\b`,
    ),
  },
  {
    kind: 'hidden-block',
    reason: 'holds a block addressed to the model (<IMPORTANT>, <SYSTEM> and the like)',
    pattern:
      /(?<![=?&/])<\s*\/?\s*(?:important|system|system[_-]?prompt|instructions?|secret|hidden|admin|assistant|prompt|critical|override|ai[_-]?(?:instructions?|only)|note[_-]?to[_-]?(?:ai|model|assistant)|llm|model)\s*>|\[\[?\s*(?:system|important|instructions?|admin)\s*\]?\]\s*:?|\{\{\s*(?:system|important|instructions?)\s*\}\}|^\s*#{1,6}\s*(?:system|hidden instructions?)\s*:?\s*$|\b(?:note|message|instructions?) (?:to|for) (?:the )?(?:ai|llm|model|assistant|agent)\b/m,
  },
  {
    kind: 'hidden-block',
    reason: 'holds an HTML comment (hidden where the description is rendered as markdown)',
    pattern: /<!--/,
  },
  {
    kind: 'secret-access',
    reason: 'names a file that holds secrets (SSH keys, cloud credentials, MCP configs, .env)',
    pattern: new RegExp(secretFile),
  },
  {
    kind: 'secret-access',
    reason: 'asks for secrets or the conversation to be read or sent',
    pattern: new RegExp(
      String.raw`\b${readVerb}\s+(?:(?:all|any|every|the|your|their|user'?s?|the user'?s?|of the|contents of(?: the)?)\s+){0,3}${secretThing}\b[^.!?\n]{0,80}\b(?:to|into|in|as|with)\b[^.!?\n]{0,40}(?:parameter|argument|field|request|url|server|sidenote|note|https?:)`,
    ),
  },
  {
    kind: 'exfiltration-url',
    reason: 'holds a URL whose query carries a placeholder for data to send',
    pattern: new RegExp(String.raw`https?://[^\s)"'>]+[?&]${exfilParameter}=${placeholder}`),
  },
  {
    kind: 'exfiltration-url',
    reason: 'asks for data to be sent to a URL',
    pattern: new RegExp(
      String.raw`\b${sendVerb}\s+(?:(?:all|any|every|the|your|its|their|this|of|user'?s?|whole|full|entire)\s+){0,4}${sendObject}\b[^.!?\n]{0,80}\b(?:to|at|via)\s+(?:the\s+)?(?:url|endpoint|webhook|server)?\s*:?\s*<?https?://`,
    ),
  },
  {
    kind: 'exfiltration-url',
    reason: 'holds a markdown image whose URL carries a query (data leaks when it is rendered)',
    pattern: /!\[[^\]]*\]\(\s*https?:\/\/[^\s)]+\?[^\s)]*=[^\s)]*\)/,
  },
];

/** Letter-only phrases checked on the squashed text, for obfuscations the patterns above cannot see through. */
export const squashedPhrases: readonly { kind: InstructionKind; reason: string; phrase: string }[] = [
  ...[
    'ignorepreviousinstructions',
    'ignoreallpreviousinstructions',
    'ignoreallinstructions',
    'ignoreyourinstructions',
    'disregardpreviousinstructions',
    'disregardallpreviousinstructions',
    'forgetpreviousinstructions',
    'ignorepriorinstructions',
  ].map((phrase) => ({
    kind: 'instruction-override' as const,
    reason: 'tells the model to ignore its instructions (obfuscated)',
    phrase,
  })),
  ...[
    'donottelltheuser',
    'donttelltheuser',
    'donotinformtheuser',
    'donotmentionthistotheuser',
    'donotrevealthistotheuser',
  ].map((phrase) => ({
    kind: 'concealment' as const,
    reason: 'tells the model to hide something from the user (obfuscated)',
    phrase,
  })),
];
