import type { Ajv2020, FuncKeywordDefinition } from 'ajv/dist/2020.js';

/** `value` as an integer coefficient and a power of ten, read from its shortest decimal text. */
function toDecimal(value: number): [bigint, number] {
  const [coefficient = '0', exponent = '0'] = Math.abs(value).toString().split('e');
  const point = coefficient.indexOf('.');
  const fractionLength = point === -1 ? 0 : coefficient.length - point - 1;
  return [BigInt(coefficient.replace('.', '')), Number(exponent) - fractionLength];
}

/**
 * True when `value` is a whole multiple of `divisor` as the two read in decimal (0.07 of 0.01): the
 * reading cfworker uses, exact where a binary division is not (0.07 / 0.01 is 7.000000000000001).
 */
export function isMultipleOf(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  const [valueDigits, valueExponent] = toDecimal(value);
  const [divisorDigits, divisorExponent] = toDecimal(divisor);
  const shift = valueExponent - divisorExponent;
  return shift >= 0
    ? (valueDigits * 10n ** BigInt(shift)) % divisorDigits === 0n
    : valueDigits % (divisorDigits * 10n ** BigInt(-shift)) === 0n;
}

const multipleOf: FuncKeywordDefinition = {
  keyword: 'multipleOf',
  type: 'number',
  schemaType: 'number',
  errors: true,
  validate: function validateMultipleOf(divisor: number, value: number): boolean {
    if (isMultipleOf(value, divisor)) return true;
    (validateMultipleOf as { errors?: unknown[] }).errors = [
      { keyword: 'multipleOf', params: { multipleOf: divisor }, message: `must be multiple of ${divisor}` },
    ];
    return false;
  },
};

/** Replaces Ajv's `multipleOf` (a binary division) with the decimal reading both validators share. */
export function useDecimalMultipleOf(ajv: Ajv2020): void {
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword(multipleOf);
}
