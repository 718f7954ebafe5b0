/** E.164: a plus, a non-zero country digit, 7 to 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;
export const E164_EXAMPLE = '+919876543210';
