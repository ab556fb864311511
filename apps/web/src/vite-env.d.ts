/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "true" for the Laos build: default locale la, no 10-digit phone rule, currency at registration. */
  readonly VITE_LAOS?: string;
  /** "false" to launch games in the same tab (default: a new tab). */
  readonly VITE_LAUNCH_NEW_TAB?: string;
  /** Minimum QR deposit for PAYTIMZ, overriding the contract's default. */
  readonly VITE_PAYTIMZ_MIN?: string;
  /** Minimum QR deposit for ZPAY, overriding the contract's default. */
  readonly VITE_ZPAY_MIN?: string;
  /** Where the how-to videos are loaded from (default: /howto shipped in public/). */
  readonly VITE_HOWTO_BASE_URL?: string;
  /** The minimum age at registration (default 20). */
  readonly VITE_MIN_AGE?: string;
  /** The year of the build (vite.config.ts sets it): the prerendered pages' copyright year. */
  readonly VITE_BUILD_YEAR?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
