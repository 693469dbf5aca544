import packageJson from '../../package.json' with { type: 'json' };

/** This package's version, for MCP `serverInfo` and `graded-tools --version`. */
export const PACKAGE_VERSION: string = packageJson.version;
