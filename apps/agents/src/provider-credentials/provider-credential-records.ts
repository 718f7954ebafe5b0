import { ProviderCredentialDto } from '@vap/api';
import { ProviderCredential } from './entities/provider-credential.entity';

/** A stored credential as responses show it: the key never, its last four characters only. */
export function toProviderCredentialDto(row: ProviderCredential): ProviderCredentialDto {
  return {
    id: row.id,
    provider: row.provider,
    label: row.label,
    region: row.region,
    key_last4: `…${row.keyLast4}`,
    status: 'active',
    checked_at: row.checkedAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
