/** The runtimes the runtime suites run on (see runtimes.mjs). */
export declare const RUNTIMES: Record<'bun' | 'deno' | 'node24' | 'wrangler', { spec: string; bin: string }>;
export declare const runtimesDir: string;
/** The installed binary of `name`, or undefined when it is not installed. */
export declare function runtimeBinary(name: keyof typeof RUNTIMES): string | undefined;
/** Installs `name` unless it is there; returns its binary, or undefined with the reason printed. */
export declare function installRuntime(name: keyof typeof RUNTIMES): string | undefined;
/** Telemetry off and everything on loopback, for every runtime a test starts. */
export declare const quietEnv: Record<string, string>;
