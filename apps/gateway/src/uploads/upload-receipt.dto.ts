import { ApiProperty } from '@nestjs/swagger';

export class UploadReceiptDto {
  @ApiProperty({ description: 'Bytes stored' })
  size: number;

  @ApiProperty({ example: 'application/pdf' })
  content_type: string;
}
