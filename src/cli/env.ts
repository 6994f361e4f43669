/** A `${NAME}` whose variable is not set: the caller says where (FILE:LINE) it was written. */
export class UnsetVariableError extends Error {
  constructor(readonly variable: string) {
    super(`\${${variable}} is not set in the environment`);
  }
}

const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * `${NAME}` replaced by the environment variable's value, for configs and scripts that must not hold secrets or
 * per-machine URLs. An unset variable is an error (a silent empty string would load the wrong page); `$${` stays a
 * literal `${`. Only braced names are read, so `$saved` values of scripts are left alone.
 */
export function expandEnv(text: string, env: NodeJS.ProcessEnv = process.env): string {
  return text.replace(REFERENCE, (match, name: string | undefined) => {
    if (name === undefined) return '${';
    const value = env[name];
    if (value === undefined) throw new UnsetVariableError(name);
    return value;
  });
}
