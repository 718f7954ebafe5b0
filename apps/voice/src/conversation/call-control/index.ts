// What a call's tools and the platform may do to the call: end, opt out, transfer, press keys, acknowledge a
// wait, leave a voicemail.
export { CallControls, OPTED_OUT, type CallControl, type ControlledTurn } from './call-control';
export { leaveVoicemail } from './voicemail';
