/** The command that installs the toolchains (see runtime-tool.mjs). */
export const INSTALL: string;
/** The toolchains' folder, ending in a slash. */
export const TOOLCHAINS: string;
/** Where a tool's executable is once installed. */
export function toolPath(name: string): string;
/** Why a tool cannot run here, in one line, or undefined when it is installed. */
export function missingTool(name: string): string | undefined;
/** Stops this process (exit 2, one line saying how to install it) unless the tool is installed. */
export function requireTool(name: string): void;
