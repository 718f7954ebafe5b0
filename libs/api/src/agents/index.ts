export * from './tool-ack-config.dto';
export * from './turn-taking.dto';
export * from './dtmf.dto';
export * from './agent-field.decorators';
export * from './agent-input.dto';
export * from './agent.dto';
export * from './list-agents-query.dto';
export * from './agent-events';
