package io.floe.adapters.rest.web.view;

/** A grant on the namespace or one of its tables, with the form action that removes it. */
public record GrantRow(String principal, String target, String action, String created,
    String removeAction) {}
