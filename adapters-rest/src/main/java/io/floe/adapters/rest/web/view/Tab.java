package io.floe.adapters.rest.web.view;

/** One tab of a page: its id (also the {@code ?tab=} value), its label, whether it is open. */
public record Tab(String id, String label, boolean selected) {}
