package io.floe.adapters.rest.web.view;

/**
 * A table or view of a namespace: its page (empty for views, which have none yet), the identifier
 * as the command line writes it (for the copy button), and when it last changed.
 */
public record TableRow(String name, String href, String identifier, String updated,
    String updatedIso) {}
