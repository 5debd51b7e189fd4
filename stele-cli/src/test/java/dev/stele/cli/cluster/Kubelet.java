package dev.stele.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stele.testing.KubeletVolume;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The kubelet's part for one container of a pod spec, as {@code podman run} options: the pod's and
 * the container's security context (user, group, fsGroup as a supplementary group, read-only root,
 * no capabilities, no privilege escalation), the environment with {@code secretKeyRef}s resolved,
 * and each Secret and ConfigMap volume materialised in the kubelet's layout ({@link KubeletVolume})
 * and mounted at its mountPath as the mount says (read-only); an emptyDir is a tmpfs. The options
 * use the host's network; the image and its arguments are the caller's.
 */
final class Kubelet {
  private final KubernetesClient client;
  private final String namespace;
  private final Path root;
  private final Map<String, KubeletVolume> volumes = new LinkedHashMap<>();
  private final Map<String, Volume> sources = new LinkedHashMap<>();

  Kubelet(KubernetesClient client, String namespace, Path root) {
    this.client = client;
    this.namespace = namespace;
    this.root = root;
  }

  /** The {@code podman run} options for {@code container} of {@code pod}. */
  List<String> options(PodSpec pod, Container container) throws IOException {
    List<String> options = new ArrayList<>(List.of("--network=host"));
    PodSecurityContext podContext = pod.getSecurityContext();
    SecurityContext context = container.getSecurityContext();
    Long user = context != null && context.getRunAsUser() != null ? context.getRunAsUser() : null;
    Long group =
        context != null && context.getRunAsGroup() != null ? context.getRunAsGroup() : null;
    if (podContext != null) {
      user = user != null ? user : podContext.getRunAsUser();
      group = group != null ? group : podContext.getRunAsGroup();
      if (podContext.getFsGroup() != null) {
        options.addAll(List.of("--group-add", podContext.getFsGroup().toString()));
      }
    }
    if (user != null) {
      options.addAll(List.of("--user", user + (group == null ? "" : ":" + group)));
    }
    if (context != null) {
      if (Boolean.TRUE.equals(context.getReadOnlyRootFilesystem())) {
        options.addAll(List.of("--read-only", "--read-only-tmpfs=false"));
      }
      if (Boolean.FALSE.equals(context.getAllowPrivilegeEscalation())) {
        options.add("--security-opt=no-new-privileges");
      }
      if (context.getCapabilities() != null) {
        for (String drop : context.getCapabilities().getDrop()) {
          options.add("--cap-drop=" + drop);
        }
      }
    }
    for (EnvVar e : container.getEnv()) {
      String value = e.getValue();
      if (e.getValueFrom() != null) {
        SecretKeySelector ref = e.getValueFrom().getSecretKeyRef();
        assertThat(ref).as("env " + e.getName() + ": only secretKeyRef is resolved").isNotNull();
        value = secretData(ref.getName()).get(ref.getKey());
        assertThat(value).as("env " + e.getName() + " from " + ref).isNotNull();
      }
      options.addAll(List.of("-e", e.getName() + "=" + value));
    }
    for (Volume v : pod.getVolumes()) {
      sources.put(v.getName(), v);
    }
    for (VolumeMount m : container.getVolumeMounts()) {
      assertThat(m.getSubPath()).as("subPath of " + m.getName()).isNull();
      Volume v = sources.get(m.getName());
      assertThat(v).as("volume " + m.getName()).isNotNull();
      if (v.getEmptyDir() != null) {
        options.addAll(List.of("--tmpfs", m.getMountPath()));
        continue;
      }
      KubeletVolume volume = new KubeletVolume(root.resolve(m.getName()));
      volumes.put(m.getName(), volume);
      sync(m.getName());
      boolean readOnly = Boolean.TRUE.equals(m.getReadOnly());
      options.addAll(
          List.of("-v", volume.dir() + ":" + m.getMountPath() + (readOnly ? ":ro" : "")));
    }
    return options;
  }

  /**
   * Rewrites volume {@code name} from its Secret or ConfigMap as it is now, as the kubelet does
   * when the object changes: one atomic swap of {@code ..data}.
   */
  void sync(String name) throws IOException {
    Volume v = sources.get(name);
    Map<String, String> data;
    List<KeyToPath> items;
    if (v.getSecret() != null) {
      data = secretData(v.getSecret().getSecretName());
      items = v.getSecret().getItems();
    } else if (v.getConfigMap() != null) {
      ConfigMap map =
          client.configMaps().inNamespace(namespace).withName(v.getConfigMap().getName()).get();
      assertThat(map).as("ConfigMap of volume " + name).isNotNull();
      data = map.getData();
      items = v.getConfigMap().getItems();
    } else {
      throw new AssertionError("volume " + name + ": neither a Secret nor a ConfigMap");
    }
    Map<String, String> files = new LinkedHashMap<>();
    if (items == null || items.isEmpty()) {
      files.putAll(data);
    } else {
      for (KeyToPath item : items) {
        assertThat(data).as("volume " + name).containsKey(item.getKey());
        files.put(item.getPath(), data.get(item.getKey()));
      }
    }
    volumes.get(name).write(files);
  }

  private Map<String, String> secretData(String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    assertThat(secret).as("Secret " + name).isNotNull();
    Map<String, String> data = new LinkedHashMap<>();
    secret
        .getData()
        .forEach(
            (k, v) ->
                data.put(k, new String(Base64.getDecoder().decode(v), StandardCharsets.UTF_8)));
    return data;
  }
}
