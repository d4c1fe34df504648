/** The OS_* variables that make a client `user` (password = name, project = name) of the sandbox at `url`. */
export function sandboxClientEnv(url: string, user = 'demo'): Record<string, string> {
  return {
    OS_AUTH_URL: `${url}/identity/v3`,
    OS_USERNAME: user,
    OS_PASSWORD: user,
    OS_PROJECT_NAME: user,
    OS_USER_DOMAIN_NAME: 'Default',
    OS_PROJECT_DOMAIN_NAME: 'Default',
  };
}
