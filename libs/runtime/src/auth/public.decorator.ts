import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'vap:public';
/** Skips partner API-key auth (health, docs, the operator API which has its own guard). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
