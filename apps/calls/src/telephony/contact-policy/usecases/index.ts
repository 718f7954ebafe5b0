import { CreateDoNotCallEntry } from './create-do-not-call-entry/create-do-not-call-entry.usecase';
import { DeleteDoNotCallEntry } from './delete-do-not-call-entry/delete-do-not-call-entry.usecase';
import { ExportDoNotCallPage } from './export-do-not-call-page/export-do-not-call-page.usecase';
import { GetContactPolicySettings } from './get-contact-policy-settings/get-contact-policy-settings.usecase';
import { GetDoNotCallEntry } from './get-do-not-call-entry/get-do-not-call-entry.usecase';
import { ImportDoNotCallEntries } from './import-do-not-call-entries/import-do-not-call-entries.usecase';
import { ListDoNotCallEntries } from './list-do-not-call-entries/list-do-not-call-entries.usecase';
import { ListPolicyDecisions } from './list-policy-decisions/list-policy-decisions.usecase';
import { LookUpDoNotCall } from './look-up-do-not-call/look-up-do-not-call.usecase';
import { UpdateContactPolicySettings } from './update-contact-policy-settings/update-contact-policy-settings.usecase';
import { UpdateDoNotCallEntry } from './update-do-not-call-entry/update-do-not-call-entry.usecase';

export {
  CreateDoNotCallEntry,
  DeleteDoNotCallEntry,
  ExportDoNotCallPage,
  GetContactPolicySettings,
  GetDoNotCallEntry,
  ImportDoNotCallEntries,
  ListDoNotCallEntries,
  ListPolicyDecisions,
  LookUpDoNotCall,
  UpdateContactPolicySettings,
  UpdateDoNotCallEntry,
};

/** One use case per contact-policy command, as ContactPolicyHandlers routes them. */
export const CONTACT_POLICY_USE_CASES = [
  CreateDoNotCallEntry,
  ListDoNotCallEntries,
  GetDoNotCallEntry,
  UpdateDoNotCallEntry,
  DeleteDoNotCallEntry,
  LookUpDoNotCall,
  ImportDoNotCallEntries,
  ExportDoNotCallPage,
  ListPolicyDecisions,
  GetContactPolicySettings,
  UpdateContactPolicySettings,
];
