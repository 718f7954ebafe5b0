import { CALL_STATUSES } from '@vap/messages';
import { canMoveStatus, isTerminalStatus, releasesConcurrency } from './call-status-machine';

describe('call statuses', () => {
  it('marks exactly the contract’s terminal statuses as terminal and concurrency-releasing', () => {
    const terminal = CALL_STATUSES.filter(isTerminalStatus);
    expect(terminal).toEqual(['completed', 'failed', 'no_answer', 'busy', 'canceled']);
    expect(CALL_STATUSES.filter(releasesConcurrency)).toEqual(terminal);
  });

  it('moves forward only: pending -> ringing -> in_progress -> a terminal status', () => {
    expect(canMoveStatus('pending', 'ringing')).toBe(true);
    expect(canMoveStatus('pending', 'in_progress')).toBe(true);
    expect(canMoveStatus('ringing', 'in_progress')).toBe(true);
    expect(canMoveStatus('ringing', 'no_answer')).toBe(true);
    expect(canMoveStatus('in_progress', 'completed')).toBe(true);
    expect(canMoveStatus('pending', 'busy')).toBe(true);
  });

  it('never moves backwards, repeats a status, or leaves a terminal status', () => {
    expect(canMoveStatus('in_progress', 'ringing')).toBe(false);
    expect(canMoveStatus('ringing', 'pending')).toBe(false);
    expect(canMoveStatus('ringing', 'ringing')).toBe(false);
    for (const from of CALL_STATUSES.filter(isTerminalStatus)) {
      for (const to of CALL_STATUSES) expect(canMoveStatus(from, to)).toBe(false);
    }
  });
});
