/** Debian's Chromium binary (CHROMIUM_PATH overrides it). */
export declare const CHROMIUM_PATH: string;
/** The flags Chromium needs on these machines. */
export declare const CHROMIUM_ARGS: readonly string[];
