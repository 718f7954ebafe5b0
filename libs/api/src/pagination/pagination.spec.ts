import { NextCursor } from './pagination';

describe('NextCursor', () => {
  class Page {
    @NextCursor()
    next_cursor: string | null;
  }

  it('documents a nullable string cursor for the next page', () => {
    expect(Reflect.getMetadata('swagger/apiModelProperties', Page.prototype, 'next_cursor')).toMatchObject({
      type: String,
      nullable: true,
      description: 'Pass as cursor to get the next page; null on the last page',
    });
  });
});
