package io.floe.adapters.rest.slice;

import io.floe.application.port.in.namespace.IcebergNamespacesUseCase;
import io.floe.application.security.OrgContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.exceptions.NamespaceNotEmptyException;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.apache.iceberg.rest.requests.UpdateNamespacePropertiesRequest;
import org.apache.iceberg.rest.responses.CreateNamespaceResponse;
import org.apache.iceberg.rest.responses.GetNamespaceResponse;
import org.apache.iceberg.rest.responses.ListNamespacesResponse;
import org.apache.iceberg.rest.responses.UpdateNamespacePropertiesResponse;

/**
 * Namespaces in a map, with the service's answers for the cases a route must map: only admins
 * create or drop, an existing name is a conflict, a missing one a 404, a namespace named
 * {@code busy} is never empty. Every call is recorded with the scope it came with.
 */
public final class FakeIcebergNamespaces implements IcebergNamespacesUseCase {
  private final Calls calls;
  private final Map<Namespace, Map<String, String>> namespaces = new LinkedHashMap<>();
  /** The scope of the last call: what the route told the use case about the request. */
  public volatile OrgContext lastScope;

  public FakeIcebergNamespaces(Calls calls) {
    this.calls = calls;
  }

  public synchronized FakeIcebergNamespaces with(Namespace namespace) {
    namespaces.put(namespace, new HashMap<>());
    return this;
  }

  public synchronized boolean holds(Namespace namespace) {
    return namespaces.containsKey(namespace);
  }

  @Override
  public synchronized ListNamespacesResponse list(OrgContext context, Namespace parent,
      String pageToken, Integer pageSize) {
    seen(context, "list");
    List<Namespace> children = new ArrayList<>();
    for (Namespace namespace : namespaces.keySet()) {
      if (namespace.length() == parent.length() + 1 && startsWith(namespace, parent)) {
        children.add(namespace);
      }
    }
    return ListNamespacesResponse.builder().addAll(children).build();
  }

  @Override
  public synchronized CreateNamespaceResponse create(OrgContext context,
      CreateNamespaceRequest request) {
    seen(context, "create");
    requireAdmin(context);
    if (namespaces.containsKey(request.namespace())) {
      throw new AlreadyExistsException("Namespace already exists: %s", request.namespace());
    }
    namespaces.put(request.namespace(), new HashMap<>(request.properties()));
    return CreateNamespaceResponse.builder().withNamespace(request.namespace())
        .setProperties(request.properties()).build();
  }

  @Override
  public synchronized GetNamespaceResponse load(OrgContext context, Namespace namespace) {
    seen(context, "load");
    return GetNamespaceResponse.builder().withNamespace(namespace)
        .setProperties(existing(namespace)).build();
  }

  @Override
  public synchronized UpdateNamespacePropertiesResponse updateProperties(OrgContext context,
      Namespace namespace, UpdateNamespacePropertiesRequest request) {
    seen(context, "updateProperties");
    Map<String, String> properties = existing(namespace);
    request.removals().forEach(properties::remove);
    properties.putAll(request.updates());
    return UpdateNamespacePropertiesResponse.builder().addUpdated(request.updates().keySet())
        .addRemoved(request.removals()).build();
  }

  @Override
  public synchronized void drop(OrgContext context, Namespace namespace) {
    seen(context, "drop");
    requireAdmin(context);
    existing(namespace);
    if (namespace.level(namespace.length() - 1).equals("busy")) {
      throw new NamespaceNotEmptyException("Namespace %s is not empty", namespace);
    }
    namespaces.remove(namespace);
  }

  private void seen(OrgContext context, String method) {
    lastScope = context;
    calls.record("IcebergNamespaces", method);
  }

  private Map<String, String> existing(Namespace namespace) {
    Map<String, String> properties = namespaces.get(namespace);
    if (properties == null) {
      throw new NoSuchNamespaceException("Namespace does not exist: %s", namespace);
    }
    return properties;
  }

  private static void requireAdmin(OrgContext context) {
    if (!context.isAdmin()) {
      throw new ForbiddenException("Only an org admin may do this");
    }
  }

  private static boolean startsWith(Namespace namespace, Namespace parent) {
    for (int i = 0; i < parent.length(); i++) {
      if (!namespace.level(i).equals(parent.level(i))) {
        return false;
      }
    }
    return true;
  }
}
