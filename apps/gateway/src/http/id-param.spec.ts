import { ArgumentMetadata } from '@nestjs/common';
import { AppError, CampaignId, ErrorCode } from '@vap/messages';
import { idParam } from './id-param';

const UUID = '6d0b3f0c-6a0e-4a8e-9a55-0d7f4c1f2b11';
const meta: ArgumentMetadata = { type: 'param', data: 'id' };

function rejection(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected the pipe to refuse the id');
}

describe('idParam', () => {
  it('passes a UUID through as it is, in either case', () => {
    const pipe = idParam('Agent');
    expect(pipe.transform(UUID, meta)).toBe(UUID);
    expect(pipe.transform(UUID.toUpperCase(), meta)).toBe(UUID.toUpperCase());
  });

  it.each(['not-a-uuid', '', `${UUID}x`, `cmp_${UUID}`, '%00', undefined])(
    'answers %p with 404 NOT_FOUND "<Resource> not found"',
    (id) => {
      const err = rejection(() => idParam('Webhook endpoint').transform(id, meta));
      expect(err).toBeInstanceOf(AppError);
      expect(err.code).toBe(ErrorCode.NOT_FOUND);
      expect(err.status).toBe(404);
      expect(err.message).toBe('Webhook endpoint not found');
    },
  );

  it("checks a prefixed id against its prefix's rule", () => {
    const pipe = idParam('Campaign', CampaignId);
    expect(pipe.transform(`cmp_${UUID}`, meta)).toBe(`cmp_${UUID}`);
    for (const id of [UUID, `pn_${UUID}`, `cmp_${UUID.toUpperCase()}`]) {
      const err = rejection(() => pipe.transform(id, meta));
      expect(err.code).toBe(ErrorCode.NOT_FOUND);
      expect(err.message).toBe('Campaign not found');
    }
  });
});
