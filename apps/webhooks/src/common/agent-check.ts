// The handlers still import it from here; the helper itself is shared in @vap/messaging.
export { assertOwnAgent } from '@vap/messaging';
