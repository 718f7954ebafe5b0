export * from './campaign-limits';
export * from './campaign-input.dto';
export * from './campaign.dto';
export * from './contacts.dto';
export * from './contact-rows';
