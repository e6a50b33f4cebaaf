package io.floe.adapters.rest.web.view;

/** Where a page of a listing sits: links to the previous and next page, empty at the ends. */
public record Paging(int page, int pages, long total, String previousHref, String nextHref) {
  public boolean hasPrevious() {
    return previousHref != null;
  }

  public boolean hasNext() {
    return nextHref != null;
  }
}
