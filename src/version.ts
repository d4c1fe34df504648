/** Hearth's release, as `hearth --version` and the API's build_info report it. */
export const HEARTH_VERSION = '0.1.0';
