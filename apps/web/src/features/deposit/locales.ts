import type { Locale } from '@mw/contract/constants';
import { addNamespace } from '../../i18n/namespaces';

/**
 * The `deposit` i18next namespace: texts of the slip upload and the gift-link encryption, kept with the feature (its own chunk, not the
 * first download) and added to i18next when the chunk loads (i18n/namespaces.ts).
 */
const en = {
  slipTitle: 'Upload your transfer slip',
  slipHint: 'Transferred already? Upload the slip from your banking app within 1 hour of the transfer. We read its QR code and check the transfer with the bank.',
  slipPick: 'Choose slip image',
  slipChange: 'Choose another',
  slipPreview: 'Slip preview',
  slipSend: 'Upload slip',
  slipUploading: 'Uploading… {{percent}}%',
  slipChecking: 'Checking with the bank…',
  slipSuccess: 'Slip verified: {{amount}} added to your wallet',
  slipPending: 'The bank has not confirmed this transfer yet. We will check again and credit your wallet by itself — see the slip history.',
  slipFailed: 'Slip not accepted: {{reason}}',
  slipNoQr: 'No QR code was found on this picture. Upload the slip image saved from your bank app (the receipt with a small QR code), not a photo or a screenshot of something else.',
  slipQrNotSlip: 'The QR code on this picture is not a bank slip. Upload the slip image saved from your bank app after the transfer.',
  slipBusy: 'Many slips are being checked right now, so yours was not checked. Please upload it again in a moment.',
  slipHistory: 'Slip history',
  slipNotImage: 'Please choose an image (PNG, JPEG or WebP).',
  giftNoCrypto: 'This browser cannot encrypt the gift link. Please update it, or open the site over https.',
};

export type DepositMessages = typeof en;

const th: DepositMessages = {
  slipTitle: 'อัปโหลดสลิปการโอน',
  slipHint: 'โอนเงินแล้วใช่ไหม อัปโหลดสลิปจากแอปธนาคารภายใน 1 ชั่วโมงหลังโอน ระบบจะอ่านคิวอาร์โค้ดบนสลิปและตรวจสอบกับธนาคาร',
  slipPick: 'เลือกรูปสลิป',
  slipChange: 'เลือกรูปใหม่',
  slipPreview: 'ตัวอย่างสลิป',
  slipSend: 'อัปโหลดสลิป',
  slipUploading: 'กำลังอัปโหลด… {{percent}}%',
  slipChecking: 'กำลังตรวจสอบกับธนาคาร…',
  slipSuccess: 'ตรวจสอบสลิปแล้ว เติมเงิน {{amount}} เข้ากระเป๋าแล้ว',
  slipPending: 'ธนาคารยังไม่ยืนยันรายการนี้ ระบบจะตรวจสอบอีกครั้งและเติมเงินให้อัตโนมัติ ดูได้ที่ประวัติสลิป',
  slipFailed: 'สลิปไม่ผ่านการตรวจสอบ: {{reason}}',
  slipNoQr: 'ไม่พบคิวอาร์โค้ดในรูปนี้ กรุณาอัปโหลดรูปสลิปที่บันทึกจากแอปธนาคาร (ใบเสร็จที่มีคิวอาร์โค้ดเล็ก ๆ) ไม่ใช่รูปถ่ายหรือภาพหน้าจออื่น',
  slipQrNotSlip: 'คิวอาร์โค้ดในรูปนี้ไม่ใช่สลิปธนาคาร กรุณาอัปโหลดรูปสลิปที่บันทึกจากแอปธนาคารหลังโอนเงิน',
  slipBusy: 'ขณะนี้มีสลิปรอตรวจสอบจำนวนมาก สลิปของคุณยังไม่ได้ตรวจสอบ กรุณาอัปโหลดอีกครั้งในอีกสักครู่',
  slipHistory: 'ประวัติสลิป',
  slipNotImage: 'กรุณาเลือกไฟล์รูปภาพ (PNG, JPEG หรือ WebP)',
  giftNoCrypto: 'เบราว์เซอร์นี้เข้ารหัสลิงก์ซองของขวัญไม่ได้ กรุณาอัปเดตเบราว์เซอร์ หรือเปิดเว็บไซต์ผ่าน https',
};

const la: DepositMessages = {
  slipTitle: 'ອັບໂຫຼດສະລິບການໂອນ',
  slipHint: 'ໂອນເງິນແລ້ວບໍ? ອັບໂຫຼດສະລິບຈາກແອັບທະນາຄານພາຍໃນ 1 ຊົ່ວໂມງຫຼັງໂອນ. ລະບົບຈະອ່ານຄິວອາໂຄດເທິງສະລິບ ແລະ ກວດສອບກັບທະນາຄານ.',
  slipPick: 'ເລືອກຮູບສະລິບ',
  slipChange: 'ເລືອກຮູບໃໝ່',
  slipPreview: 'ຕົວຢ່າງສະລິບ',
  slipSend: 'ອັບໂຫຼດສະລິບ',
  slipUploading: 'ກຳລັງອັບໂຫຼດ… {{percent}}%',
  slipChecking: 'ກຳລັງກວດສອບກັບທະນາຄານ…',
  slipSuccess: 'ກວດສອບສະລິບແລ້ວ ເຕີມເງິນ {{amount}} ເຂົ້າກະເປົາແລ້ວ',
  slipPending: 'ທະນາຄານຍັງບໍ່ຢືນຢັນລາຍການນີ້. ລະບົບຈະກວດສອບອີກຄັ້ງ ແລະ ເຕີມເງິນໃຫ້ອັດຕະໂນມັດ — ເບິ່ງໄດ້ທີ່ປະຫວັດສະລິບ.',
  slipFailed: 'ສະລິບບໍ່ຜ່ານການກວດສອບ: {{reason}}',
  slipNoQr: 'ບໍ່ພົບຄິວອາໂຄດໃນຮູບນີ້. ກະລຸນາອັບໂຫຼດຮູບສະລິບທີ່ບັນທຶກຈາກແອັບທະນາຄານ (ໃບຮັບເງິນທີ່ມີຄິວອາໂຄດນ້ອຍ), ບໍ່ແມ່ນຮູບຖ່າຍ ຫຼື ພາບໜ້າຈໍອື່ນ.',
  slipQrNotSlip: 'ຄິວອາໂຄດໃນຮູບນີ້ບໍ່ແມ່ນສະລິບທະນາຄານ. ກະລຸນາອັບໂຫຼດຮູບສະລິບທີ່ບັນທຶກຈາກແອັບທະນາຄານຫຼັງໂອນເງິນ.',
  slipBusy: 'ຕອນນີ້ມີສະລິບລໍຖ້າກວດສອບຫຼາຍ ສະລິບຂອງທ່ານຍັງບໍ່ໄດ້ກວດສອບ. ກະລຸນາອັບໂຫຼດອີກຄັ້ງໃນອີກບໍ່ດົນ.',
  slipHistory: 'ປະຫວັດສະລິບ',
  slipNotImage: 'ກະລຸນາເລືອກໄຟລ໌ຮູບພາບ (PNG, JPEG ຫຼື WebP)',
  giftNoCrypto: 'ບຣາວເຊີນີ້ເຂົ້າລະຫັດລິ້ງຊອງຂອງຂວັນບໍ່ໄດ້. ກະລຸນາອັບເດດບຣາວເຊີ ຫຼື ເປີດເວັບໄຊຜ່ານ https.',
};

/** Every locale of the namespace; test/i18n.test.ts checks each has every key. */
export const depositLocales: Readonly<Record<Locale, DepositMessages>> = { th, la, en };

/** The namespace's name for `useTranslation`; importing it adds the texts to i18next. */
export const depositNs = addNamespace('deposit', depositLocales);
