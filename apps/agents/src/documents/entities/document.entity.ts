import { Column, Entity, PrimaryColumn } from 'typeorm';
import { Timestamped } from '@vap/persistence';
import { DocumentStatus, DocumentType } from '@vap/api';

const bigintAsNumber = { to: (v: number) => v, from: (v: string | number) => Number(v) };

/** A knowledge-base document: an uploaded file (bytes in blob storage) or a web link. Soft-deleted. */
@Entity({ name: 'documents' })
export class Document extends Timestamped {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ name: 'partner_id', type: 'uuid' })
  partnerId: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('text')
  type: DocumentType;

  @Column('text')
  status: DocumentStatus;

  @Column({ name: 'file_size', type: 'bigint', transformer: bigintAsNumber })
  fileSize: number;

  @Column({ name: 'mime_type', type: 'text' })
  mimeType: string;

  @Column({ type: 'text', nullable: true })
  url: string | null;

  /** Where the upload's bytes live in blob storage; null for web links. */
  @Column({ name: 'storage_key', type: 'text', nullable: true })
  storageKey: string | null;

  @Column({ name: 'upload_expires_at', type: 'timestamptz', nullable: true })
  uploadExpiresAt: Date | null;

  @Column({ name: 'confirmed_at', type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
