/**
 * The variables a stdio server inherits from the host when its entry does not set them: the 1.x SDK's
 * `DEFAULT_INHERITED_ENV_VARS` (modelled on sudo's default), the one rule for every stdio server whatever its era.
 * Kept here rather than read from the SDK so that a server is spawned before any SDK client module is loaded (~60–120
 * ms of imports that now overlap the server's own start); `inherited-environment.test.ts` holds it equal to the SDK's.
 */
const inheritedVariables =
  process.platform === 'win32'
    ? [
        'APPDATA',
        'HOMEDRIVE',
        'HOMEPATH',
        'LOCALAPPDATA',
        'PATH',
        'PROCESSOR_ARCHITECTURE',
        'SYSTEMDRIVE',
        'SYSTEMROOT',
        'TEMP',
        'USERNAME',
        'USERPROFILE',
        'PROGRAMFILES',
      ]
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'];

/** The inherited part of a stdio server's environment; a value that is a shell function (`() {…`) is never passed. */
export function inheritedEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const name of inheritedVariables) {
    const value = env[name];
    if (value !== undefined && !value.startsWith('()')) inherited[name] = value;
  }
  return inherited;
}
