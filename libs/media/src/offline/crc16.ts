// CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection): the text modem's frame check.

const TABLE = new Uint16Array(256);
for (let byte = 0; byte < 256; byte++) {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  TABLE[byte] = crc;
}

/** Feeds one byte into a running CRC (start from CRC16_INIT). */
export function crc16Update(crc: number, byte: number): number {
  return ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff];
}

export const CRC16_INIT = 0xffff;

/** CRC-16/CCITT-FALSE of the bytes ("123456789" gives 0x29B1). */
export function crc16Ccitt(bytes: Uint8Array): number {
  let crc = CRC16_INIT;
  for (let i = 0; i < bytes.length; i++) crc = crc16Update(crc, bytes[i]);
  return crc;
}
