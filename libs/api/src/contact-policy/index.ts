export * from './do-not-call.dto';
export * from './do-not-call-rows';
export * from './policy-decision.dto';
export * from './calling-window.dto';
export * from './contact-policy-settings.dto';
