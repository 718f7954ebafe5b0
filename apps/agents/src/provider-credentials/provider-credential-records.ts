import { ProviderCredentialDto } from '@vap/api';
import { credentialUses } from '@vap/messages';
import { ProviderCredential } from './entities/provider-credential.entity';

/** A stored credential as responses show it: the key never, its last four characters only; a secret never. */
export function toProviderCredentialDto(row: ProviderCredential): ProviderCredentialDto {
  return {
    id: row.id,
    provider: row.provider,
    label: row.label,
    region: row.region,
    key_last4: row.keyLast4 === null ? null : `…${row.keyLast4}`,
    used_for: credentialUses(row.provider),
    base_url: row.baseUrl,
    status: 'active',
    checked_at: row.checkedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
