// What a call's tools and the platform may do to the call: end, opt out, transfer, press keys, acknowledge a
// wait, leave a voicemail. Its types are the call-control port's (../call-control-port.ts).
export { CallControls, OPTED_OUT } from './call-control';
export { leaveVoicemail } from './voicemail';
