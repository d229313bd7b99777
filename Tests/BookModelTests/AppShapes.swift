import Foundation

// The three apps' persisted types, copied from their contract (seed-app-formats.md) with the
// synthesized Codable they use, so tests can produce app files the way the apps write them, with
// Swift's own encoder.

enum MemoirAI {
    struct PersistableStorybook: Codable, Equatable {
        let profileID: UUID
        let pageItems: [PersistablePageItem]
        let artStyle: String
        let createdAt: Date
        let cover: CoverSettings?
    }

    enum PersistablePageItem: Codable, Equatable {
        case illustration(imageData: Data, caption: String)
        case textPage(index: Int, total: Int, body: String)
        case qrCode(id: UUID, url: URL)
    }

    struct CoverSettings: Codable, Equatable {
        var title: String
        var subtitle: String
        var accentHex: String
        var coverPhotoData: Data?
    }
}

enum Roger {
    struct GeneratedStory: Codable, Equatable {
        let title: String
        let characterName: String
        let characterImageData: Data?
        let characterManifest: CharacterManifest
        let pages: [GeneratedPage]
        let createdAt: Date
    }

    struct GeneratedPage: Codable, Equatable {
        let pageNumber: Int
        let text: String
        let scene: String
        let imageData: Data?
    }

    struct CharacterManifest: Codable, Equatable { let characters: [SecondaryCharacter] }

    struct SecondaryCharacter: Codable, Equatable {
        let name: String
        let role: String
        let appearance: CharacterAppearance
    }

    struct CharacterAppearance: Codable, Equatable {
        let ageDescription: String
        let hairDescription: String
        let faceDescription: String
        let buildDescription: String
        let clothingDescription: String
        let accessoriesDescription: String?
        let distinctiveFeatures: String?
    }
}

enum InfiniteStories {
    struct Hero: Codable, Equatable {
        let name: String
        let age: Int
        let appearance: String
        let traits: [String]
        let specialAbility: String
    }

    struct Story: Codable, Equatable {
        let title: String
        let content: String
        let hero: Hero?
        let audioFileName: String?
        let createdAt: Date
        let playCount: Int
        let isFavorite: Bool
    }
}
