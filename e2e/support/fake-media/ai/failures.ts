export { FailureSwitch, type FailureMode } from '@vap/speech/testing';
