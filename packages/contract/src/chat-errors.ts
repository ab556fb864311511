/**
 * The chat domain's own error codes (beyond the spec's), zod-free like deposit-errors.ts.
 */
export const chatErrorCodes = [
  /** 400: a message that is empty after trimming. */
  'CHAT_MESSAGE_EMPTY',
  /** 400: a message longer than 2000 characters after trimming. */
  'CHAT_MESSAGE_TOO_LONG',
  /** 400: an upload without a file in the field `file`. */
  'CHAT_NO_FILE',
  /** 400: a file whose name has no accepted extension, or whose content is not the image or video it claims to be. */
  'CHAT_FILE_UNSUPPORTED',
  /** 413: an image over 10 MB or a video over 20 MB. */
  'CHAT_FILE_TOO_LARGE',
  /** 400: a media message naming a file that was not uploaded (or belongs to another conversation). */
  'CHAT_FILE_UNKNOWN',
  /** 401: neither a member's token nor a guest id came with a chat call (uploads included). */
  'CHAT_NO_IDENTITY',
  /** 401: a guest id the server did not issue (POST /api/chat/guest issues one): forged, or a bare UUID from an older client. */
  'CHAT_GUEST_INVALID',
  /** 403: a userId or guestId that is not the caller's own conversation. */
  'CHAT_FORBIDDEN',
  /** 403: a guest's upload before the guest sent a message of their own (a guest uploads into a conversation they started). */
  'CHAT_WRITE_FIRST',
] as const;
