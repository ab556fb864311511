/**
 * The gift link as POST /api/wallet/truelink wants it: base64 of the RSA-OAEP (SHA-256)
 * ciphertext of the UTF-8 link under the e-wallet's public key (SPKI PEM from GET
 * /api/lookup/deposit), then `::`, then the e-wallet account name. WebCrypto needs a secure
 * context (https, or localhost): without it this throws NoWebCrypto.
 */
export class NoWebCrypto extends Error {
  constructor() {
    super('WebCrypto is not available');
    this.name = 'NoWebCrypto';
  }
}

function pemBody(pem: string): ArrayBuffer {
  const base64 = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export async function sealGiftLink(publicKeyPem: string, link: string, walletAccountName: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle as SubtleCrypto | undefined;
  if (!subtle) throw new NoWebCrypto();
  const key = await subtle.importKey('spki', pemBody(publicKeyPem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
  const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(link));
  return `${toBase64(cipher)}::${walletAccountName}`;
}
