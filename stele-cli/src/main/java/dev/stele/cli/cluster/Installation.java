package dev.stele.cli.cluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What {@code stele install} applies and {@code stele uninstall} removes: the objects of the
 * kustomize base in {@code deploy/}, which the build packages into the CLI, read in the order its
 * {@code kustomization.yaml} lists them, then edited structurally (namespace, image, requests, the
 * node agent left out). The project ships one copy of that YAML; this class holds no other.
 */
final class Installation {
  /** The namespace the base is written for. */
  static final String BASE_NAMESPACE = "stele";

  static final String NODE_AGENT_FILE = "node-agent.yaml";

  private static final String ROOT = "deploy/";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** One object and the base file it comes from. */
  record Part(String file, HasMetadata object) {}

  private final List<Part> parts;

  private Installation(List<Part> parts) {
    this.parts = parts;
  }

  /** The base, unedited. */
  static Installation base() {
    List<Part> parts = new ArrayList<>();
    for (String file : files()) {
      for (String document : read(file).split("(?m)^---\\s*$", -1)) {
        if (!document.lines().allMatch(l -> l.isBlank() || l.stripLeading().startsWith("#"))) {
          parts.add(new Part(file, SERIALIZATION.unmarshal(document)));
        }
      }
    }
    return new Installation(parts);
  }

  /** Each object with the file it comes from, in the files' order. */
  List<Part> parts() {
    return List.copyOf(parts);
  }

  /** The files the kustomization lists, in its order. */
  @SuppressWarnings("unchecked")
  static List<String> files() {
    Map<String, Object> kustomization =
        SERIALIZATION.unmarshal(read("kustomization.yaml"), Map.class);
    return (List<String>) kustomization.get("resources");
  }

  private static String read(String file) {
    try (InputStream in = Installation.class.getResourceAsStream(ROOT + file)) {
      if (in == null) {
        throw new IllegalStateException("the CLI was built without " + ROOT + file);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Everything moved to {@code namespace}: the namespaced objects, the Namespace itself, and the
   * service accounts the bindings name.
   */
  Installation inNamespace(String namespace) {
    for (Part p : parts) {
      var meta = p.object().getMetadata();
      if (BASE_NAMESPACE.equals(meta.getNamespace())) {
        meta.setNamespace(namespace);
      }
      if (p.object().getKind().equals("Namespace") && BASE_NAMESPACE.equals(meta.getName())) {
        meta.setName(namespace);
      }
      List<Subject> subjects =
          p.object() instanceof RoleBinding rb
              ? rb.getSubjects()
              : p.object() instanceof ClusterRoleBinding crb ? crb.getSubjects() : List.of();
      for (Subject s : subjects) {
        if (BASE_NAMESPACE.equals(s.getNamespace())) {
          s.setNamespace(namespace);
        }
      }
    }
    return this;
  }

  /** Every container of the operator and the node agent runs {@code image}. */
  Installation withImage(String image) {
    for (Part p : parts) {
      PodSpec pod = podSpec(p.object());
      if (pod != null) {
        pod.getContainers().forEach(c -> c.setImage(image));
      }
    }
    return this;
  }

  /** The objects of {@code deploy/node-agent.yaml} left out. */
  Installation withoutNodeAgent() {
    parts.removeIf(p -> p.file().equals(NODE_AGENT_FILE));
    return this;
  }

  /** The requests of the operator's container ({@code operator}) or the node agent's. */
  Installation withRequests(boolean operator, String cpu, String memory) {
    for (Part p : parts) {
      boolean match = operator ? p.object() instanceof Deployment : p.object() instanceof DaemonSet;
      if (match) {
        for (Container c : podSpec(p.object()).getContainers()) {
          if (c.getResources() == null) {
            c.setResources(new ResourceRequirements());
          }
          if (cpu != null) {
            c.getResources().getRequests().put("cpu", new Quantity(cpu));
          }
          if (memory != null) {
            c.getResources().getRequests().put("memory", new Quantity(memory));
          }
        }
      }
    }
    return this;
  }

  /** Adds {@code object} (a location, its Secret) after the base. */
  Installation with(HasMetadata object) {
    parts.add(new Part("", object));
    return this;
  }

  /**
   * The objects in the order they can be applied: the namespace and the CRDs first, then who may do
   * what, then the workloads, the custom resources last (their types must be served first).
   */
  List<HasMetadata> objects() {
    return parts.stream()
        .map(Part::object)
        .sorted(Comparator.comparingInt(Installation::rank))
        .toList();
  }

  private static final List<String> ORDER =
      List.of(
          "Namespace",
          "CustomResourceDefinition",
          "ServiceAccount",
          "Secret",
          "ClusterRole",
          "ClusterRoleBinding",
          "Role",
          "RoleBinding",
          "Deployment",
          "DaemonSet");

  private static int rank(HasMetadata o) {
    int i = ORDER.indexOf(o.getKind());
    return i < 0 ? ORDER.size() : i;
  }

  private static PodSpec podSpec(HasMetadata o) {
    if (o instanceof Deployment d) {
      return d.getSpec().getTemplate().getSpec();
    }
    if (o instanceof DaemonSet ds) {
      return ds.getSpec().getTemplate().getSpec();
    }
    return null;
  }

  /** {@code objects} as YAML documents, each starting with {@code ---}. */
  static String yaml(List<HasMetadata> objects) {
    StringBuilder out = new StringBuilder();
    for (HasMetadata o : objects) {
      String doc = SERIALIZATION.asYaml(o);
      out.append(doc.startsWith("---") ? "" : "---\n").append(doc);
      if (!doc.endsWith("\n")) {
        out.append('\n');
      }
    }
    return out.toString();
  }

  /** {@code objects} as kubectl's JSON {@code List}. */
  static String json(List<HasMetadata> objects) {
    return SERIALIZATION.asJson(Map.of("apiVersion", "v1", "kind", "List", "items", objects));
  }
}
