import { CreateDateColumn, UpdateDateColumn } from 'typeorm';

/**
 * The created_at / updated_at pair (timestamptz) most entities carry: TypeORM sets them on entity writes;
 * raw SQL that changes a row sets updated_at itself.
 */
export abstract class Timestamped {
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
