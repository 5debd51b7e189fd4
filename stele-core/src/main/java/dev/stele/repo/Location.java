package dev.stele.repo;

/** A chunk's place in the repository: a pack and an entry in it. */
public record Location(String pack, PackEntry entry) {}
