package dev.stele.operator.kube;

import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resource types a backup may collect, as the API server's discovery lists them: every type of
 * every group's preferred version that can be listed and read, custom resources included, of either
 * scope (which cluster-scoped objects a backup takes is the backup's to say). Left out:
 * subresources, types whose objects the cluster makes again by itself or that describe the moment
 * or the machines rather than the application (events, endpoints, leases, metrics, nodes and what
 * attaches volumes to them), and Stele's own resources (a backup must not hold the Backups).
 *
 * <p>A server that answers discovery with nothing (fabric8's mock server, unless a test serves
 * discovery documents) gets {@link ResourceType#DEFAULTS}.
 */
public final class Discovery {
  private static final Logger LOG = LoggerFactory.getLogger(Discovery.class);

  /** group/resource pairs never collected ({@code ""} is the core group). */
  private static final Set<String> SKIPPED =
      Set.of(
          "/events",
          "events.k8s.io/events",
          "/endpoints",
          "discovery.k8s.io/endpointslices",
          "coordination.k8s.io/leases",
          "metrics.k8s.io/pods",
          "metrics.k8s.io/nodes",
          "/bindings",
          "/nodes",
          "/componentstatuses",
          "storage.k8s.io/csinodes",
          "storage.k8s.io/volumeattachments");

  private static final String STELE_GROUP = dev.stele.k8s.api.SteleApi.GROUP;

  private Discovery() {}

  public static List<ResourceType> types(KubernetesClient client) {
    List<ResourceType> out = new ArrayList<>();
    try {
      add(out, "", client.getApiResources("v1"));
      var groups = client.getApiGroups();
      for (APIGroup group : groups == null ? List.<APIGroup>of() : groups.getGroups()) {
        if (group.getPreferredVersion() == null || STELE_GROUP.equals(group.getName())) {
          continue;
        }
        add(
            out,
            group.getName(),
            client.getApiResources(group.getPreferredVersion().getGroupVersion()));
      }
    } catch (KubernetesClientException e) {
      LOG.warn("discovery failed ({}); collecting the built-in list of types", e.getMessage());
      return ResourceType.DEFAULTS;
    }
    if (out.isEmpty()) {
      return ResourceType.DEFAULTS;
    }
    // Namespaces first, as restores need them first; then by group and name, for stable trees.
    out.sort(
        (a, b) ->
            a.resource().equals("namespaces") && a.group().isEmpty()
                ? -1
                : b.resource().equals("namespaces") && b.group().isEmpty()
                    ? 1
                    : a.qualifiedName().compareTo(b.qualifiedName()));
    return List.copyOf(out);
  }

  private static void add(List<ResourceType> out, String group, APIResourceList list) {
    if (list == null || list.getResources() == null) {
      return;
    }
    String version =
        list.getGroupVersion() == null
            ? "v1"
            : list.getGroupVersion().substring(list.getGroupVersion().indexOf('/') + 1);
    for (APIResource r : list.getResources()) {
      if (r.getName().contains("/")
          || SKIPPED.contains(group + "/" + r.getName())
          || r.getVerbs() == null
          || !r.getVerbs().contains("list")
          || !r.getVerbs().contains("get")) {
        continue;
      }
      out.add(
          new ResourceType(
              group, version, r.getName(), r.getKind(), Boolean.TRUE.equals(r.getNamespaced())));
    }
  }
}
