package io.floe.bootstrap.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.Slice;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * No slice (here: a package) depends on another that depends back on it, however indirectly. Each
 * group of slices that reach each other is one violation, listing every dependency between its
 * members with one example of a class that makes it.
 *
 * <p>ArchUnit's own {@code beFreeOfCycles()} is not used: in 1.4 its search for strongly
 * connected components can skip one (a component of lower index that the first search from a
 * given start does not reach is never searched), so it reports some cycles of a codebase and
 * silently passes others. This condition compares what every slice reaches, which is exact and,
 * for some hundred packages, cheap.
 */
final class PackageCycles extends ArchCondition<Slice> {
  private final List<DescribedPredicate<JavaClass>> ignoredWithin;
  private Map<JavaClass, Slice> sliceOf;
  /** For each slice, the slices it depends on and one dependency that makes each of them. */
  private Map<Slice, Map<Slice, Dependency>> edges;

  private PackageCycles(List<DescribedPredicate<JavaClass>> ignoredWithin) {
    super("have no cycles between them");
    this.ignoredWithin = List.copyOf(ignoredWithin);
  }

  static PackageCycles absent() {
    return new PackageCycles(List.of());
  }

  /** Leaves out the dependencies whose origin and target both lie in {@code packageIdentifier}. */
  PackageCycles ignoringDependenciesWithin(String packageIdentifier) {
    List<DescribedPredicate<JavaClass>> ignored = new ArrayList<>(ignoredWithin);
    ignored.add(resideInAPackage(packageIdentifier));
    return new PackageCycles(ignored);
  }

  @Override
  public void init(Collection<Slice> allSlices) {
    edges = new HashMap<>();
    sliceOf = new HashMap<>();
    for (Slice slice : allSlices) {
      for (JavaClass javaClass : slice) {
        sliceOf.put(javaClass, slice);
      }
    }
  }

  @Override
  public void check(Slice slice, ConditionEvents events) {
    Map<Slice, Dependency> targets = edges.computeIfAbsent(slice, key -> new HashMap<>());
    for (Dependency dependency : slice.getDependenciesFromSelf()) {
      Slice target = sliceOf.get(dependency.getTargetClass());
      if (target == null || target.equals(slice) || ignored(dependency)) {
        continue;
      }
      // The same example every run, whatever order the dependencies come in.
      targets.merge(target, dependency, (kept, other) ->
          other.getDescription().compareTo(kept.getDescription()) < 0 ? other : kept);
    }
  }

  private boolean ignored(Dependency dependency) {
    return ignoredWithin.stream().anyMatch(inside ->
        inside.test(dependency.getOriginClass()) && inside.test(dependency.getTargetClass()));
  }

  @Override
  public void finish(ConditionEvents events) {
    Map<Slice, Set<Slice>> reachable = new HashMap<>();
    for (Slice slice : edges.keySet()) {
      reachable.put(slice, reachableFrom(slice));
    }
    Set<Slice> reported = new HashSet<>();
    for (Slice slice : sortedByName(edges.keySet())) {
      if (reported.contains(slice)) {
        continue;
      }
      List<Slice> cycle = sortedByName(reachable.get(slice).stream()
          .filter(other -> reachable.get(other).contains(slice)).toList());
      if (cycle.size() > 1) {
        reported.addAll(cycle);
        events.add(SimpleConditionEvent.violated(cycle, describe(cycle)));
      }
    }
  }

  /** The slices {@code start} depends on, directly or not; itself only if a path leads back. */
  private Set<Slice> reachableFrom(Slice start) {
    Set<Slice> seen = new LinkedHashSet<>();
    Deque<Slice> next = new ArrayDeque<>(edges.getOrDefault(start, Map.of()).keySet());
    while (!next.isEmpty()) {
      Slice slice = next.pop();
      if (seen.add(slice)) {
        next.addAll(edges.getOrDefault(slice, Map.of()).keySet());
      }
    }
    return seen;
  }

  private String describe(List<Slice> cycle) {
    StringBuilder text = new StringBuilder("Cycle between ")
        .append(String.join(", ", cycle.stream().map(PackageCycles::name).toList()))
        .append(':');
    for (Slice origin : cycle) {
      Map<String, Dependency> within = new TreeMap<>();
      edges.get(origin).forEach((target, dependency) -> {
        if (cycle.contains(target)) {
          within.put(name(target), dependency);
        }
      });
      within.forEach((target, dependency) -> text.append(System.lineSeparator())
          .append("  ").append(name(origin)).append(" -> ").append(target).append(": ")
          .append(dependency.getDescription()));
    }
    return text.toString();
  }

  private static List<Slice> sortedByName(Collection<Slice> slices) {
    return slices.stream().sorted(Comparator.comparing(PackageCycles::name)).toList();
  }

  private static String name(Slice slice) {
    return slice.getNamePart(1);
  }
}
