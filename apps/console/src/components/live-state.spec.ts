import { ApiError } from '../api';
import { Live, liveSteps, MAX_PUSH_ERRORS, parseSnapshot, pushGivesUp } from './live-state';

interface Call {
  status: string;
}

const RELOADING = 'Live updates are unavailable: this page refreshes every 10 seconds.';

describe('parseSnapshot', () => {
  it("reads the resource itself or the API's envelope around it", () => {
    expect(parseSnapshot<Call>('{"status":"ringing"}')).toEqual({ status: 'ringing' });
    expect(parseSnapshot<Call>('{"success":true,"data":{"status":"in_progress"}}')).toEqual({
      status: 'in_progress',
    });
  });

  it('keeps an object that only has one of the envelope fields as it is', () => {
    expect(parseSnapshot('{"success":true}')).toEqual({ success: true });
    expect(parseSnapshot('{"data":1}')).toEqual({ data: 1 });
  });

  it('gives null for what is not JSON', () => {
    expect(parseSnapshot('{"status":')).toBeNull();
    expect(parseSnapshot('')).toBeNull();
  });
});

describe('the steps of a live page', () => {
  const ringing: Live<Call> = { data: { status: 'ringing' }, error: null, mode: 'push', notice: null };

  it('starts with nothing loaded', () => {
    expect(liveSteps.loading()).toEqual({ data: null, error: null, mode: 'loading', notice: null });
  });

  it('follows by push after a first load that is not final, and stops at one that is', () => {
    expect(liveSteps.loaded({ status: 'ringing' }, false)).toEqual(ringing);
    expect(liveSteps.loaded({ status: 'completed' }, true)).toEqual({
      data: { status: 'completed' },
      error: null,
      mode: 'final',
      notice: null,
    });
  });

  it('makes a failed first load the page, as an API error', () => {
    const notFound = new ApiError(404, 'NOT_FOUND', 'No such call');
    expect(liveSteps.loadFailed(notFound)).toEqual({
      data: null,
      error: notFound,
      mode: 'final',
      notice: null,
    });
    const other = liveSteps.loadFailed(new Error('boom'));
    expect(other.error).toBeInstanceOf(ApiError);
    expect(other.error).toMatchObject({ status: 0, code: 'ERROR', message: 'Error: boom' });
  });

  it('shows each pushed snapshot and clears a notice when the push opens again', () => {
    expect(liveSteps.pushed({ status: 'in_progress' })).toEqual({
      ...ringing,
      data: { status: 'in_progress' },
    });
    expect(liveSteps.following({ ...ringing, mode: 'reload', notice: 'x' })).toEqual(ringing);
  });

  it('keeps what is on screen when the push is interrupted, saying it reconnects', () => {
    expect(liveSteps.interrupted(ringing)).toEqual({
      ...ringing,
      notice: 'Live updates were interrupted; reconnecting…',
    });
  });

  it('ends as final with what it last showed', () => {
    expect(liveSteps.ended({ ...ringing, notice: 'x' })).toEqual({ ...ringing, mode: 'final' });
  });

  it('falls back to reloading, keeping what is on screen and saying so', () => {
    expect(liveSteps.fellBack(ringing)).toEqual({ ...ringing, mode: 'reload', notice: RELOADING });
  });

  it('shows each refresh, and stops refreshing once final', () => {
    expect(liveSteps.reloaded({ status: 'in_progress' }, false)).toEqual({
      data: { status: 'in_progress' },
      error: null,
      mode: 'reload',
      notice: RELOADING,
    });
    expect(liveSteps.reloaded({ status: 'completed' }, true)).toEqual({
      data: { status: 'completed' },
      error: null,
      mode: 'final',
      notice: null,
    });
  });

  it('keeps what is on screen when a refresh fails, saying why', () => {
    const reloading: Live<Call> = { ...ringing, mode: 'reload', notice: RELOADING };
    expect(liveSteps.refreshFailed(reloading, new ApiError(503, 'UNAVAILABLE', 'Try later'))).toEqual({
      ...reloading,
      notice: 'The last refresh failed (Try later); trying again in 10 seconds.',
    });
    expect(liveSteps.refreshFailed(reloading, 'offline').notice).toBe(
      'The last refresh failed (offline); trying again in 10 seconds.',
    );
  });
});

describe('pushGivesUp', () => {
  it('gives up at once when the platform closed the stream', () => {
    expect(pushGivesUp(1, true)).toBe(true);
  });

  it(`gives up after ${MAX_PUSH_ERRORS} errors in a row, and lets the browser retry before`, () => {
    for (let errors = 1; errors < MAX_PUSH_ERRORS; errors++) expect(pushGivesUp(errors, false)).toBe(false);
    expect(pushGivesUp(MAX_PUSH_ERRORS, false)).toBe(true);
  });
});
