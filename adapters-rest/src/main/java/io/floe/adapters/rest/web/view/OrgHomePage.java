package io.floe.adapters.rest.web.view;

import java.util.List;

/**
 * The org home: namespaces (searched, filtered, sorted and paged by the management API's
 * listing) beside the repos, and the new-namespace form for those who may create one.
 */
public record OrgHomePage(
    Chrome chrome,
    String action,
    String search,
    String filter,
    List<Option> sorts,
    List<Option> directions,
    boolean ghosts,
    List<NamespaceRow> namespaces,
    Paging paging,
    boolean reposShown,
    List<RepoRow> repos,
    boolean canCreate,
    List<Option> buckets) {}
