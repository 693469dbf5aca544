/** Where the command writes for people (never stdout in stdio mode: that is the protocol). */
export interface CommandIo {
  readonly cwd: string;
  readonly error: (line: string) => void;
  /** Called before the registry module loads when stdout will carry the protocol (stdio mode). */
  readonly reserveStdout?: () => void;
}
