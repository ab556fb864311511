import type { RuleCode } from '@mw/contract/rules';

/**
 * Thai texts the guest pages' first screen shows (layout, menu, login, the rule messages…): the
 * entry's bundle (defaultMessages.ts). The rest of the guest texts are in th.later.ts, loaded
 * right after (i18n.ts loadLaterMessages); th.guest.ts joins both.
 */
export const thFirst = {
  app: {
    name: 'Member Wallet',
    tagline: 'กระเป๋าเงินสมาชิก ปลอดภัย ใช้ง่าย',
    /** Under a prerendered page, for a browser without JavaScript (scripts/prerender.mjs). */
    noScript: 'กรุณาเปิดใช้งาน JavaScript เพื่อเข้าสู่ระบบและใช้งานกระเป๋าเงิน',
  },
  common: {
    next: 'ถัดไป',
    back: 'ย้อนกลับ',
    confirm: 'ยืนยัน',
    cancel: 'ยกเลิก',
    close: 'ปิด',
    save: 'บันทึก',
    loading: 'กำลังโหลด…',
    copy: 'คัดลอก',
    copied: 'คัดลอกแล้ว: {{text}}',
    copyFailed: 'คัดลอกไม่สำเร็จ',
    saved: 'บันทึกเรียบร้อยแล้ว',
    errorTitle: 'เกิดข้อผิดพลาด',
    successTitle: 'สำเร็จ',
    comingSoon: 'เร็ว ๆ นี้',
    version: 'เวอร์ชัน {{version}}',
    showPassword: 'แสดงรหัสผ่าน',
    hidePassword: 'ซ่อนรหัสผ่าน',
    retry: 'ลองใหม่',
  },
  language: {
    label: 'ภาษา',
    th: 'ไทย',
    la: 'ລາວ',
    en: 'English',
  },
  nav: {
    mainMenu: 'เมนูหลัก',
    home: 'หน้าแรก',
    register: 'สมัครสมาชิก',
    howto: 'วิธีใช้งาน',
    contact: 'ติดต่อเรา',
    profile: 'โปรไฟล์',
    conditions: 'เงื่อนไข',
    statement: 'รายการ',
    bonus: 'โบนัส',
    spin: 'วงล้อ',
    logout: 'ออกจากระบบ',
  },
  layout: {
    credit: '© {{year}} {{website}} สงวนลิขสิทธิ์',
    skipToContent: 'ข้ามไปยังเนื้อหา',
  },
  login: {
    title: 'เข้าสู่ระบบ',
    subtitle: 'ยินดีต้อนรับกลับมา กรอกเบอร์โทรศัพท์และรหัสผ่านของคุณ',
    username: 'เบอร์โทรศัพท์',
    usernamePlaceholder: 'เช่น 0812345678',
    password: 'รหัสผ่าน',
    passwordPlaceholder: 'กรอกรหัสผ่าน',
    rememberMe: 'จดจำฉันไว้ในเครื่องนี้',
    submit: 'เข้าสู่ระบบ',
    noAccount: 'ยังไม่มีบัญชี?',
    registerLink: 'สมัครสมาชิก',
    forgotPassword: 'ลืมรหัสผ่าน?',
  },
  timeAgo: {
    year: '{{value}} ปีที่แล้ว',
    month: '{{value}} เดือนที่แล้ว',
    day: '{{value}} วันที่แล้ว',
    hour: '{{value}} ชั่วโมงที่แล้ว',
    minute: '{{value}} นาทีที่แล้ว',
    second: '{{value}} วินาทีที่แล้ว',
  },
  placeholder: {
    bonusTitle: 'โบนัสและโปรโมชัน',
    bonusText: 'รับโบนัส ใช้โค้ดโปรโมชัน และดูเงื่อนไขได้ที่นี่ เร็ว ๆ นี้',
    spinTitle: 'วงล้อนำโชค',
    spinText: 'หมุนวงล้อด้วยเหรียญของคุณเพื่อลุ้นรางวัล เร็ว ๆ นี้',
  },
  terminated: {
    title: 'ปิดให้บริการแล้ว',
    message: 'ขออภัย บริการนี้ได้ยุติการให้บริการแล้ว ขอบคุณที่ใช้บริการของเรา',
  },
  notFound: {
    title: 'ไม่พบหน้าที่คุณต้องการ',
    message: 'ลิงก์อาจไม่ถูกต้องหรือหน้านี้ถูกย้ายไปแล้ว',
    backHome: 'กลับหน้าแรก',
  },
  failure: {
    generic: 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง',
    network: 'ไม่สามารถเชื่อมต่อเซิร์ฟเวอร์ได้ กรุณาตรวจสอบอินเทอร์เน็ต',
    timeout: 'เซิร์ฟเวอร์ตอบกลับช้าเกินไป กรุณาลองใหม่อีกครั้ง',
    invalidResponse: 'ได้รับข้อมูลจากเซิร์ฟเวอร์ไม่ถูกต้อง',
  },
  rules: {
    REQUIRED: 'กรุณากรอกข้อมูลช่องนี้',
    PHONE_NUMBER_REQUIRE_10_DIGIT: 'เบอร์โทรศัพท์ต้องมี {{phoneLength}} หลัก',
    PHONE_NUMBER_INVALID: 'เบอร์โทรศัพท์ต้องเป็นตัวเลข {{phoneMin}}–{{phoneMax}} หลัก',
    PASSWORD_TOO_SHORT: 'รหัสผ่านต้องมีอย่างน้อย {{passwordMin}} ตัวอักษร',
    PASSWORD_TOO_LONG: 'รหัสผ่านต้องไม่เกิน {{passwordMax}} ตัวอักษร',
    PASSWORDS_NOT_MATCH: 'รหัสผ่านไม่ตรงกัน',
    NAME_TOO_LONG: 'ชื่อต้องไม่เกิน {{nameMax}} ตัวอักษร',
    BANK_ACCOUNT_NO_INVALID: 'เลขที่บัญชีต้องเป็นตัวเลข 10–18 หลัก',
    BANK_ACCOUNT_NAME_INVALID: 'ชื่อบัญชีใช้ได้เฉพาะตัวอักษร ช่องว่าง และจุด',
    BANK_ACCOUNT_NAME_ENG: 'ชื่อบัญชีธนาคารต้องเป็นภาษาอังกฤษเท่านั้น',
    BIRTH_DATE_INVALID: 'กรุณากรอกวันเกิดให้ถูกต้อง',
    UNDERAGE: 'ต้องมีอายุอย่างน้อย {{minAge}} ปีจึงจะสมัครได้',
  } satisfies Record<RuleCode, string>,
};
