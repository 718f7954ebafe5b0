import { sandboxNumberOf } from './default-line.service';

describe('sandboxNumberOf', () => {
  it('is a stable fictional E.164 number per partner', () => {
    const a = sandboxNumberOf('3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11');
    expect(a).toMatch(/^\+1555\d{7}$/);
    expect(sandboxNumberOf('3f0c6a0e-6d0b-4a8e-9a55-0d7f4c1f2b11')).toBe(a);
    expect(sandboxNumberOf('00000000-0000-4000-8000-000000000000')).not.toBe(a);
  });
});
