/**
 * What clients accept as a listed tool or prompt name: Claude Desktop, OpenAI and Bedrock reject dots and longer
 * names. The config checks new names against it (`tools.<name>.name`), and the MCP server lists nothing else.
 */
export const EXPOSED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** How tools and prompts are listed: `server__name` (default), or under the backends' own names. */
export type ExposedNameStyle = 'prefixed' | 'original';
