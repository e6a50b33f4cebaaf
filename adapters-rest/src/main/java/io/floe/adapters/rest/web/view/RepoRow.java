package io.floe.adapters.rest.web.view;

/** A repo in the org home's listing. */
public record RepoRow(String name, String href, String description, String created,
    String createdIso) {}
